"""Prompt templates (package data)."""
