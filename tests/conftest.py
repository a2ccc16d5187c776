"""Shared test set-up."""

import signal

# Tests send Ctrl-C (SIGINT) to child processes.  A test run started in the background of a
# non-interactive shell inherits SIGINT as ignored, and so would every child it starts, which
# would then never see the Ctrl-C.  A handler (unlike "ignored") is reset to the default in a
# child at exec, so installing Python's own handler here gives every child a normal Ctrl-C.
signal.signal(signal.SIGINT, signal.default_int_handler)
