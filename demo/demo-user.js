// Demo only: the user picker. A real site's token endpoint knows the visitor from its
// own session cookie; here `?user=bob` picks the demo user the local backend signs for.
const params = new URLSearchParams(location.search);
const user = params.get('user') || 'alice';
for (const widget of document.querySelectorAll('chat-widget')) {
  // On the support page the endpoint also opens the visitor's own conversation with the agent.
  const support = widget.hasAttribute('data-support') ? '&support=1' : '';
  widget.setAttribute('token-endpoint', `/demo/token?user=${encodeURIComponent(widget.dataset.user || user)}${support}`);
}
const picker = document.querySelector('#user-picker');
if (picker) {
  picker.value = user;
  picker.addEventListener('change', () => {
    params.set('user', picker.value);
    location.search = params.toString();
  });
}
