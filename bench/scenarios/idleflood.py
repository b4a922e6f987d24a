#!/usr/bin/env python3
"""A load beside bench/compare's measured scenario (BENCH_BESIDE=idleflood): one client address (127.0.0.2) opens
1,010 connections that never send a request, and opens a new one for each the service closes, at most 50 a second,
for the run's duration: the attack that took every connection of the service without a key. Prints one BESIDE line:
how many connections it held open at the end and how many the service closed on it."""
import selectors
import socket
import sys
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
WANTED, REOPEN_PER_SECOND = 1010, 50
selector = selectors.DefaultSelector()
opened = closed_by_service = 0


def open_one():
    global opened
    connection = socket.socket()
    connection.bind(("127.0.0.2", 0))
    connection.setblocking(False)
    connection.connect_ex(("127.0.0.1", port))
    selector.register(connection, selectors.EVENT_READ)
    opened += 1


end = time.monotonic() + seconds
for _ in range(WANTED):
    open_one()
while time.monotonic() < end:
    for key, _ in selector.select(timeout=0.1):
        try:
            data = key.fileobj.recv(4096)
        except OSError:
            data = b""
        if not data:
            selector.unregister(key.fileobj)
            key.fileobj.close()
            closed_by_service += 1
    # At most REOPEN_PER_SECOND new connections a second after the first 1,010, as the attack made them.
    started = end - seconds
    while len(selector.get_map()) < WANTED and opened - WANTED < REOPEN_PER_SECOND * (time.monotonic() - started):
        open_one()
print(f"BESIDE held={len(selector.get_map())} opened={opened} closed_by_service={closed_by_service}")
