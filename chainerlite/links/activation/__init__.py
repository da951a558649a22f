"""Links of activation functions with learned parameters."""
