"""unotable: a terminal card table for UNO, UNO Minecraft, UNO Hearts and Wild Twist Hearts."""
