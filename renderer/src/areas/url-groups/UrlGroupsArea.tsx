import { GroupIcon } from '../../ui/icons';
import { ComingSoon, LocalStackHint } from '../ComingSoon';

export default function UrlGroupsArea() {
  return (
    <ComingSoon
      title="URL groups"
      headline="The URL-group editor is on its way"
      subtitle="Fan out one message to many endpoints"
      icon={<GroupIcon />}
      summary="Manage the groups your messages fan out through, with their endpoints and default headers."
      plans={[
        'Create groups, paste many endpoints at once',
        'Default headers with a before/after diff before applying',
        'Publish to a group and see one result per endpoint',
      ]}
      today={<LocalStackHint service="messages" />}
    />
  );
}
