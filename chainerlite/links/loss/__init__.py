"""Links of loss functions with learned parameters."""
