import type { Role } from '@pharmacy/contracts';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { useUser } from '../session/SessionProvider';
import { AuditScreen } from './AuditScreen';
import { BranchesScreen } from './BranchesScreen';
import { SettingsScreen } from './SettingsScreen';
import { UsersScreen } from './UsersScreen';

const SECTIONS: { path: string; label: string; roles: readonly Role[] }[] = [
  { path: '/users', label: 'Users', roles: ['branch_manager', 'auditor'] },
  { path: '/branches', label: 'Branches', roles: ['branch_manager', 'auditor'] },
  { path: '/settings', label: 'Settings', roles: ['branch_manager', 'auditor'] },
  { path: '/audit', label: 'Audit log', roles: ['branch_manager', 'auditor'] },
];

/** Rendered under a nested route, so its paths are relative to /back-office. */
export function BackOffice() {
  const user = useUser();
  const [location] = useLocation();
  const sections = SECTIONS.filter((s) => user.role === 'admin' || s.roles.includes(user.role));
  const first = sections[0];
  return (
    <div className="back-office">
      <nav aria-label="Back office" className="sub-nav">
        <ul>
          {sections.map((s) => (
            <li key={s.path}>
              <Link href={s.path} aria-current={location === s.path ? 'page' : undefined}>
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="back-office-body">
        <Switch>
          <Route path="/users" component={UsersScreen} />
          <Route path="/branches" component={BranchesScreen} />
          <Route path="/settings" component={SettingsScreen} />
          <Route path="/audit" component={AuditScreen} />
          <Route>{first ? <Redirect to={first.path} replace /> : <p>Nothing to manage here.</p>}</Route>
        </Switch>
      </div>
    </div>
  );
}
