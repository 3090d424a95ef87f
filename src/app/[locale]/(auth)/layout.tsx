import type { ReactNode } from "react";
import { LocaleSwitcher } from "@/web/components/locale-switcher";
import { ThemeSwitch } from "@/web/components/theme-switch";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth-shell">
      <header className="auth-header">
        <span className="brand">Faultline</span>
        <div className="header-end">
          <ThemeSwitch />
          <LocaleSwitcher />
        </div>
      </header>
      <main className="card auth-card">{children}</main>
    </div>
  );
}
