"""Reads one image with zxing-cpp (Codabar and QR only, its default effort), printing the first text."""
import sys

import PIL.Image
import zxingcpp

results = zxingcpp.read_barcodes(
    PIL.Image.open(sys.argv[1]), formats=(zxingcpp.BarcodeFormat.Codabar, zxingcpp.BarcodeFormat.QRCode)
)
if results:
    print(results[0].text)
