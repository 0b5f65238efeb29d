"""Rules core: pure procedures and exact odds for every supported system"""
