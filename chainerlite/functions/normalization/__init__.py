"""Normalization functions (batch, layer, group, L2 and local response)."""
