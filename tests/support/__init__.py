"""Test helpers shared by the store, pipeline and end-to-end tests."""
