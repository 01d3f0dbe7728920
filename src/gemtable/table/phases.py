"""A table's phases: the lobby, a decision being played, a reveal's beat, the pause between rounds, the results."""

LOBBY, PLAYING, REVEAL, PAUSE, RESULTS = "lobby", "playing", "reveal", "pause", "results"
