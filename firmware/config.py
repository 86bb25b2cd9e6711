# Light-and-keypad board settings: the one place that names the Pico's pins.
# hardware/ docs refer to this file; change a pin here, nowhere else.
# GP numbers are the RP2040 GPIO numbers printed on the Pico's pinout (GP0..GP28).

FIRMWARE_VERSION = "0.1.0"

# NeoPixel (WS2812/SK6812) ring over the dice tray.
RING_PIN = 16  # GP16 (Pico pin 21) -> ring DIN, through a 330 ohm resistor
RING_LEDS = 16  # 16-24 LED rings all work; tell the truth here
RING_RGBW = False  # True for RGBW (SK6812) rings: steady light then uses the white LED only

# Brightness. A 16-LED ring at full white draws about 1 A, more than the Pico's USB port
# should give: MAX_LEVEL scales every colour the board shows.
MAX_LEVEL = 160  # 0-255, applied to all output
STEADY_LEVEL = 200  # default steady level (before MAX_LEVEL scaling); STEADY without argument
FALLBACK_LEVEL = 200  # steady level used when the host goes silent

# Rotary encoder (optional): A/B quadrature and push switch to GND, internal pull-ups.
ENCODER = True
ENC_A_PIN = 18  # GP18 (Pico pin 24)
ENC_B_PIN = 19  # GP19 (Pico pin 25)
ENC_SW_PIN = 20  # GP20 (Pico pin 26)
ENC_STEPS_PER_DETENT = 4  # quadrature transitions per click: 4 for most EC11 parts, 2 for some
ENC_REVERSE = False  # swap next/prev if the knob turns the wrong way
DEBOUNCE_MS = 25
HOLD_MS = 800  # push held this long sends KEY hold instead of KEY confirm

# Piezo buzzer (optional), driven by PWM.
BUZZER = True
BUZZER_PIN = 15  # GP15 (Pico pin 20)
EFFECT_SOUNDS = True  # short sounds with the effects

# Link timing.
HOST_TIMEOUT_MS = 3000  # no valid frame for this long -> steady light (host sends PING every 1 s)
FRAME_MS = 20  # animation frame period (50 fps)
