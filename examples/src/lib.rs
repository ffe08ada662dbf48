//! Example benches and data for pilot.
