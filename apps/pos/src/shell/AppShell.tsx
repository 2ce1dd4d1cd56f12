import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useAmountFieldScanGuard } from '../sell/scan-guard';
import { useSession, useUser } from '../session/SessionProvider';
import { visibleNav } from './nav';
import { StatusBar } from './StatusBar';
import { useShortcuts } from '../ui/useShortcuts';

/** F1 always leaves the cursor in Sell's search box, whether Sell was open or is being opened. */
function focusSellSearch(frames = 20): void {
  const search = document.querySelector<HTMLInputElement>('input[data-sell-search]');
  if (search) {
    search.focus();
    return;
  }
  if (frames > 0) requestAnimationFrame(() => focusSellSearch(frames - 1));
}

export function AppShell({ children }: { children: ReactNode }) {
  const user = useUser();
  const { signOut } = useSession();
  const [location, navigate] = useLocation();
  const items = visibleNav(user.role);
  useAmountFieldScanGuard();
  useShortcuts(
    Object.fromEntries(
      items.map((item) => [
        item.key,
        () => {
          navigate(item.path);
          if (item.path === '/sell') focusSellSearch();
        },
      ]),
    ),
  );

  return (
    <div className="shell">
      <header className="top-bar">
        <nav aria-label="Main">
          <ul>
            {items.map((item) => {
              const current = location === item.path || location.startsWith(`${item.path}/`);
              return (
                <li key={item.path}>
                  <Link
                    href={item.path}
                    className="nav-link"
                    aria-current={current ? 'page' : undefined}
                    aria-keyshortcuts={item.key}
                    aria-label={`${item.key} ${item.label}`}
                    title={item.label}
                  >
                    <kbd>{item.key}</kbd> <span className="nav-label">{item.label}</span>
                    <span className="nav-short">{item.short}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <button type="button" className="ghost sign-out" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main className="content">{children}</main>
      <StatusBar user={user} />
    </div>
  );
}
