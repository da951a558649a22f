"""``python -m chainerlite``: prints the runtime information."""

import chainerlite

if __name__ == '__main__':
    chainerlite.print_runtime_info()
