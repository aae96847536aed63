import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from './Button';
import { Callout } from './misc';

interface Props {
  /** Names the area in the message ("Messages could not be shown"). */
  area: string;
  children: ReactNode;
}

/** One per area: a crash in one screen shows a readable message there, never a blank window. */
export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`${this.props.area} crashed`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="page-body">
        <div className="stack" style={{ maxWidth: 640 }}>
          <Callout tone="danger" title={`${this.props.area} could not be shown.`}>
            {this.state.error.message}
          </Callout>
          <div>
            <Button onClick={() => this.setState({ error: null })}>Try again</Button>
          </div>
        </div>
      </div>
    );
  }
}
