"""The poolboard service: CLI, config, session loop, storage, web UI, broadcast."""
