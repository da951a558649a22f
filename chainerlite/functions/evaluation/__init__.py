"""Evaluation metrics (not differentiable)."""
