"""Benchmarks behind `bunco bench WHAT`: one module each, with run(args) -> exit code."""
