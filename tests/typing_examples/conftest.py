# The examples are imported by test_examples.py only: they need
# typing_extensions, which the test environments may lack.
collect_ignore = ['train_mlp.py', 'variables.py']
