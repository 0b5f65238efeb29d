"""Run the ambush CLI as `python -m exporter`"""

from exporter.cli import main

main()
