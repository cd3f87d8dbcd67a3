"""ua3 combat (U-3…U-13, U-17, U-22, U-25) over the ua3 working table."""
