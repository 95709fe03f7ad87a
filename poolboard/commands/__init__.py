"""One module per ``poolboard`` subcommand; each defines ``register(subparsers)``.

The CLI discovers the modules here, so adding a command never touches another command's file.
"""
