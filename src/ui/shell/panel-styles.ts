import { adoptSheet } from '../../element/styles';
import { searchStyles } from '../../styles/search.styles';
import { widgetStyles } from '../../styles/widget.styles';

/** The panel's styles: the first time a panel is shown in this root (see element/styles.ts). */
export const installPanelStyles = (root: ShadowRoot) => adoptSheet(root, 'panel', widgetStyles + searchStyles);
