"""The web target: its writer (writer.py) and its release file (release.py); the campaign has no table for it"""
