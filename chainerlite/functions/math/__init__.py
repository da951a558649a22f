"""Mathematical functions: arithmetic, exponentials, reductions and products."""
