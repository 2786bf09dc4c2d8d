"""The fuzz harness (docs/hardening.md): mutated projects and expressions through the loader, the API, the expression language, validate and the command line."""
