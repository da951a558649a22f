"""Links that wrap whole models, such as classifiers."""
