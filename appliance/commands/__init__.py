"""One module a `bunco` subcommand.

Each module holds HELP (one line for `bunco --help`), add_arguments(parser) and
run(args) -> exit code. Heavy imports (OpenCV, pygame, paho) stay inside run() so that
`bunco --help` and the light commands start fast on a Pi.
"""
