//! Integration tests of pilot live in `tests/`.
