"""The Roll20 target: its writer (writer.py), its campaign table (section.py) and its release files (release.py)"""
