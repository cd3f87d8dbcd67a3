"""The `ua` command line: one module per command or group; `app` only registers them."""
