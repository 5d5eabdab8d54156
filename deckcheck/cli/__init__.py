"""The command line: a thin click layer over the library. Only this package imports click."""
