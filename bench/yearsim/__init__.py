"""A year at the ludothèque, simulated through the running site (bench/year.py drives it)."""
