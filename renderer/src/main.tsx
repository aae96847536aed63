document.getElementById('root')!.textContent = 'Switchyard';
