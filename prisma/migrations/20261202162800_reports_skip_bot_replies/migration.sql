-- A bot's messages (sent_via 'bot', lib/conversations/bot-run.ts) are not the team's answers: they neither answer a
-- conversation's question (first response time) nor count as an operator's replies. Its close still counts.
DROP TRIGGER conversation_parts_reports ON "conversation_parts";
CREATE TRIGGER conversation_parts_reports AFTER INSERT ON "conversation_parts"
  FOR EACH ROW WHEN (NEW.type IN ('reply_user', 'reply_admin', 'closed')
    AND NOT (NEW.type = 'reply_admin' AND NEW.sent_via = 'bot'))
  EXECUTE FUNCTION relay_report_parts();
