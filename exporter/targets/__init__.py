"""Target writers: render definitions into files for one virtual tabletop each"""
