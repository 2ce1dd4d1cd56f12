import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { useUser } from '../session/SessionProvider';
import { useSyncStatus } from '../shell/useHardwareStatus';
import { LANDING, type Section, visibleSections } from './sections';

/** Rendered under a nested route, so its paths are relative to /back-office. */
export function BackOffice() {
  const user = useUser();
  const [location] = useLocation();
  const sync = useSyncStatus();
  const sections = visibleSections(user.role, sync.data?.mode === 'central' ? 'central' : 'till');
  const first = sections.find((s) => s.path === LANDING[user.role]) ?? sections[0];
  return (
    <div className="back-office">
      <nav aria-label="Back office" className="sub-nav">
        {groupsOf(sections).map(([group, list]) => (
          <div key={group} className="nav-group">
            <p id={`nav-${group}`} className="nav-group-title">
              {group}
            </p>
            <ul aria-labelledby={`nav-${group}`}>
              {list.map((s) => (
                <li key={s.path}>
                  <Link
                    href={s.path}
                    aria-current={
                      location === s.path || location.startsWith(`${s.path}/`) ? 'page' : undefined
                    }
                  >
                    {s.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <div className="back-office-body">
        <Switch>
          {sections.map((s) => (
            <Route key={s.path} path={s.path} nest>
              <s.component />
            </Route>
          ))}
          <Route>{first ? <Redirect to={first.path} replace /> : <p>Nothing to manage here.</p>}</Route>
        </Switch>
      </div>
    </div>
  );
}

/** The sections under their headings, in the registry's order. */
function groupsOf(sections: readonly Section[]): Array<[string, Section[]]> {
  const groups = new Map<string, Section[]>();
  for (const s of sections) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
  return [...groups];
}
