"""The pages, scripts and styles the web UI serves (a package so that they install with it)."""
