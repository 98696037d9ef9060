"""Pound accounts: statutory accounts, findings and reconciliations for cattle pounds
under the Karnataka Cattle Trespass Act 1966, Chapter IV (ss.12-19)."""

__version__ = "0.1.0"
