"""The flags every Node run of the project's test harnesses takes, for the tests and tools/pictures.py alike"""

# The Foundry emulation links each client's modules with vm.SourceTextModule (tools/harness/foundry/emulation/isolation.mjs)
NODE_FLAGS = ("--experimental-vm-modules", "--disable-warning=ExperimentalWarning")
