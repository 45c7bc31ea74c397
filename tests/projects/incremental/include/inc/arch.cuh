// Only src/arch.cu includes this.
#pragma once

#define DEVICE_GAIN 4.0f
