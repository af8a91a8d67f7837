import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = { title: "Relay", description: "Customer messaging" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
