"""Noise injection: dropout and Gaussian sampling."""
