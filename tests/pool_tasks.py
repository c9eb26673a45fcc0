"""Tasks for the process pool's tests, in a module of their own: a worker imports only this to run them."""
import time


def slow_square(x: int, seconds: float) -> int:
    time.sleep(seconds)
    if x < 0:
        raise ValueError(f"negative {x}")
    return x * x
