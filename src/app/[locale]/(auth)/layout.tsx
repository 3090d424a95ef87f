import type { ReactNode } from "react";
import { LocaleSwitcher } from "@/web/components/locale-switcher";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth-shell">
      <header className="auth-header">
        <span className="brand">Faultline</span>
        <LocaleSwitcher />
      </header>
      <main className="card auth-card">{children}</main>
    </div>
  );
}
