"""The tests' real redis-server: the same helper the cluster benchmark uses."""

from gemtable.bench.redis_server import RedisServer

__all__ = ["RedisServer"]
