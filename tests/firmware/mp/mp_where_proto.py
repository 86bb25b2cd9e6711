# Which lightproto the board imports (run under the MicroPython unix port).
import lightproto

print(lightproto.__file__)
