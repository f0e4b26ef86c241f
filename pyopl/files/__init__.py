"""Reading source files strictly (UTF-8, located errors) and writing every output safely."""
