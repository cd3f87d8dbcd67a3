"""ua2 combat rules (I2, C2, H2) on the working table."""
