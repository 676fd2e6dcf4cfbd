"""Live play: the tables in memory, their seats, sockets, bots and pace, on asyncio, with
no web framework. Each change is stored (`store`) before it is sent.
"""
