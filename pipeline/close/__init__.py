"""Closing a month: the District Magistrate's sign-off, sealed inside the bundle (seal.py), and
the check that a close is still as it was sealed (verify.py)."""
