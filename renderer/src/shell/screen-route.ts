// The address of the screen on display: its area (`#/dlq`) or, in a tabbed area, its area and tab
// (`#/messages/logs`). A list screen opens a row at that address plus the row's id and closes the row's
// panel by going back to it, so neither the screen nor its panel spells out where it lives. TabbedArea
// provides the tab; an area without tabs is its own screen.
import { createContext, useContext, useMemo } from 'react';
import { type Route, useNav } from './nav';

export const ScreenRouteContext = createContext<Route | undefined>(undefined);

export function useScreenRoute() {
  const navigate = useNav((state) => state.navigate);
  const area = useNav((state) => state.route.area);
  const tab = useContext(ScreenRouteContext);
  return useMemo(() => {
    const screen = tab ?? { area, params: [] };
    return {
      /** Opens a row (or anything addressed below the screen): `#/<screen>/<params…>`. */
      open: (...params: string[]) => navigate(screen.area, ...screen.params, ...params),
      /** Back to the screen itself: closes the open row's panel. */
      close: () => navigate(screen.area, ...screen.params),
    };
  }, [navigate, area, tab]);
}
