"""The JSON Schemas (package data) and their generated fast validators."""
