// A QR code as SVG markup, drawn on the server by the qrcode library (no script, no request to anyone).
import "server-only";
import QRCode from "qrcode";

/** The otpauth:// URI an authenticator app scans; medium error correction, a quiet zone of 2 modules. */
export async function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
